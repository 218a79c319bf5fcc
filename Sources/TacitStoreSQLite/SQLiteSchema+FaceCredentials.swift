extension SQLiteSchema {
    /// The migration that gave the drop-in faces' records a table of their own, after
    /// `counterMigrations`: the faces' columns of `applications` (from `022_applications`)
    /// move into `face_credentials` as rows, and the table is rebuilt without them, so the
    /// store keeps records whose meaning only their face knows (docs/compatible-apis.md).
    static let faceCredentialMigrations = [
        Migration("faces_001_face_credentials", sql: """
            CREATE TABLE face_credentials (
                application_id TEXT NOT NULL,
                face TEXT NOT NULL,
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                text TEXT,
                bytes BLOB,
                PRIMARY KEY (application_id, face, name)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX face_credentials_identifier ON face_credentials(face, name, text)
                WHERE kind = 'identifier';
            \(legacyColumnCopies)
            CREATE TABLE applications_rebuilt (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                created_at REAL NOT NULL,
                revoked_at REAL,
                brand TEXT,
                code_length INTEGER,
                channel_timeout INTEGER
            );
            INSERT INTO applications_rebuilt (id, name, created_at, revoked_at, brand, code_length, channel_timeout)
                SELECT id, name, created_at, revoked_at, brand, code_length, channel_timeout FROM applications;
            DROP TABLE applications;
            ALTER TABLE applications_rebuilt RENAME TO applications;
            """),
    ]

    /// The `INSERT … SELECT` that moves each of the faces' old columns into its row.
    static var legacyColumnCopies: String {
        LegacyFaceColumn.all.map { column in
            let value = column.kind == .identifier || column.kind == .setting
                ? "\(column.column), NULL" : "NULL, \(column.column)"
            return """
                INSERT INTO face_credentials (application_id, face, name, kind, text, bytes)
                    SELECT id, '\(column.face)', '\(column.name)', '\(column.kind.rawValue)', \(value)
                    FROM applications WHERE \(column.column) IS NOT NULL;
                """
        }.joined(separator: "\n")
    }
}
