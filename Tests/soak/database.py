"""The soak's read-only view of a server's database, SQLite or PostgreSQL: the ledger asks
both the same questions, and each answers in its own dialect. A database that can't answer
(not migrated yet, or PostgreSQL itself restarting) raises DatabaseUnavailable."""
import json
import sqlite3
import subprocess


class DatabaseUnavailable(Exception):
    pass


class SQLiteDatabase:
    # The SQLite schema names a verification's id request_id in its child tables.
    id_column = "request_id"
    body = "body"

    def __init__(self, path):
        self.path = path

    def rows(self, query):
        try:
            with sqlite3.connect(f"file:{self.path}?mode=ro", uri=True) as connection:
                return [tuple(row) for row in connection.execute(query.format(id=self.id_column, body=self.body))]
        except sqlite3.OperationalError as error:
            raise DatabaseUnavailable(str(error))


class PostgresDatabase:
    """Asks through psql, so the soak needs no driver of its own: each query comes back as
    one JSON array of rows, which keeps types (numbers, nulls) and any text intact."""
    id_column = "verification_id"
    body = "convert_from(body, 'UTF8')"

    def __init__(self, url, psql):
        self.url, self.psql = url, psql

    def rows(self, query):
        wrapped = f"SELECT coalesce(json_agg(row_to_json(t)), '[]') FROM ({query.format(id=self.id_column, body=self.body)}) t"
        try:
            result = subprocess.run([self.psql, "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", self.url, "-c", wrapped],
                                    capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired as error:
            raise DatabaseUnavailable(str(error))
        if result.returncode != 0:
            raise DatabaseUnavailable(result.stderr.strip())
        return [tuple(row.values()) for row in json.loads(result.stdout)]
