// Better Auth as the peer benchmark starts it: copied into the folder the benchmark installed it in (so
// that `better-auth` resolves there), its own process, email and password on, rate limits and telemetry
// off, on a SQLite file opened with Till's driver and Till's settings, hashing with Till's argon2id library
// (@node-rs/argon2) and parameters through its custom hash option. Prints its address as one JSON line.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';

const fromTill = createRequire(process.env.TILL_ROOT + '/package.json');
const Database = fromTill(process.env.SQLITE_DRIVER);
const argon2 = fromTill('@node-rs/argon2');
const options = JSON.parse(process.env.ARGON2_OPTIONS);

const db = new Database(process.env.DB_FILE);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

let handler = (_req, res) => res.writeHead(503).end();
const server = createServer((req, res) => handler(req, res));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const auth = betterAuth({
  database: db,
  baseURL: url,
  secret: 'bench-secret-bench-secret-bench-secret-0123',
  trustedOrigins: [url],
  emailAndPassword: {
    enabled: true,
    password: {
      hash: (password) => argon2.hash(password, options),
      verify: ({ hash, password }) => argon2.verify(hash, password),
    },
  },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { disabled: true },
});
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();
handler = toNodeHandler(auth);
console.log(JSON.stringify({ url }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
