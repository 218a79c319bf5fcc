extension PostgresSchema {
    /// The drop-in faces' records in a table of their own (docs/compatible-apis.md): the
    /// faces' columns of `applications` (from `pg_004_applications`) become rows of
    /// `face_credentials` and are dropped, so the store keeps records whose meaning only
    /// their face knows. The same move as the SQLite store's `faces_001_face_credentials`.
    static let faceCredentials = PostgresMigrator.Migration("faces_001_face_credentials", sql: """
        CREATE TABLE face_credentials (
            application_id text NOT NULL,
            face text NOT NULL,
            name text NOT NULL,
            kind text NOT NULL,
            text text,
            bytes bytea,
            PRIMARY KEY (application_id, face, name)
        );
        CREATE UNIQUE INDEX face_credentials_identifier ON face_credentials (face, name, text)
            WHERE kind = 'identifier';
        INSERT INTO face_credentials (application_id, face, name, kind, text, bytes)
            SELECT id, c.face, c.name, c.kind, c.text, c.bytes FROM applications, LATERAL (VALUES
                ('vonage', 'application_id', 'identifier', vonage_application_id, NULL::bytea),
                ('vonage', 'api_key', 'identifier', vonage_api_key, NULL),
                ('vonage', 'api_secret', 'secret_hash', NULL, vonage_api_secret_hash),
                ('vonage', 'callback_url', 'setting', vonage_callback_url, NULL),
                ('vonage', 'signature_secret', 'sealed_secret', NULL, vonage_signature_secret),
                ('vonage', 'public_key', 'setting', vonage_public_key, NULL),
                ('twilio', 'account_sid', 'identifier', twilio_account_sid, NULL),
                ('twilio', 'auth_token', 'secret_hash', NULL, twilio_auth_token_hash),
                ('twilio', 'service_sid', 'identifier', twilio_service_sid, NULL)
            ) AS c (face, name, kind, text, bytes)
            WHERE c.text IS NOT NULL OR c.bytes IS NOT NULL;
        ALTER TABLE applications DROP COLUMN vonage_callback_url, DROP COLUMN vonage_signature_secret,
            DROP COLUMN vonage_public_key, DROP COLUMN vonage_application_id, DROP COLUMN vonage_api_key,
            DROP COLUMN vonage_api_secret_hash, DROP COLUMN twilio_account_sid, DROP COLUMN twilio_auth_token_hash,
            DROP COLUMN twilio_service_sid;
        """)
}
