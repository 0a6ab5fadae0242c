import type { Generated } from 'kysely';

/** Epoch milliseconds; PostgreSQL `bigint` is parsed back to a number. */
type Millis = number;

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  lang: string;
  level: number;
  email_confirmed: number;
  password_hash: string;
  pending_email: string | null;
  avatar_file_id: string | null;
  avatar_key: string | null;
  credits: number;
  created_at: Millis;
  updated_at: Millis;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: Millis;
  expires_at: Millis;
  last_seen_at: Millis | null;
  user_agent: string | null;
  ip: string | null;
}

export interface LinkTokensTable {
  token_hash: string;
  user_id: string;
  kind: 'confirm' | 'reset' | 'email_change';
  new_email: string | null;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}

export interface MigrationsTable {
  name: string;
  applied_at: Millis;
  seq: Generated<number>;
}

/** An uploaded file; its bytes are in object storage under `storage_key`. */
export interface FilesTable {
  id: string;
  user_id: string;
  name: string;
  size: number;
  mime: string;
  storage_key: string;
  public: number;
  created_at: Millis;
}

/** Bytes a user's files take, for the upload quota. */
export interface FileUsageTable {
  user_id: string;
  used_bytes: number;
}

/** Every table; modules add theirs here as they grow. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  link_tokens: LinkTokensTable;
  files: FilesTable;
  file_usage: FileUsageTable;
}
