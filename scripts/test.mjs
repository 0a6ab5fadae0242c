// Every test: lint, types and three Vitest runs side by side, each run with its own number of workers: the
// browser tests, the rest, and the server and SDK suites again on SQLite with group commit off (each
// transaction committed on its own, `TEST_SQLITE_GROUP_COMMIT=off`); then the ten slowest files, what
// failed and one closing line.
//
// Most of the suite waits (on databases, the SMTP server, Chromium), so it runs files in parallel even
// on two cores, and lint and the type check fill the waits instead of running before the tests; the
// browser tests run two files at a time, since each drives a Chromium and a server of its own. The files
// of a worker share their modules (vitest.config.ts, decision 016). The run with group commit off leaves
// PostgreSQL out (and the cluster suite, which needs it): group commit is SQLite's alone, and the first
// run has covered PostgreSQL. It also leaves out the files that never open a test database
// (`sameWithGroupCommitOff` below): they would run there exactly as in the first run. Arguments go to a
// single Vitest run instead: `npm test -- packages/server/src/files` (`TEST_SQLITE_GROUP_COMMIT=off npm
// test -- ...` for those files with group commit off).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'test-output');
const args = process.argv.slice(2);

/** Runs a command, each line of its output behind `label`; answers its exit code, and the process as `child`. */
function run(label, command, commandArgs, env = {}) {
  let child;
  const done = new Promise((resolve) => {
    child = spawn(command, commandArgs, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (label) {
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) process.stdout.write(`${label} ${line}\n`);
        });
        stream.on('end', () => rest && process.stdout.write(`${label} ${rest}\n`));
      }
    }
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  done.child = child;
  return done;
}

const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const node = process.execPath;

if (args.length) process.exit(await run('', node, [vitest, 'run', ...args]));

const started = Date.now();
rmSync(join(out, 'vitest'), { recursive: true, force: true });
mkdirSync(join(out, 'vitest'), { recursive: true });
// Files the run with group commit off leaves out: they never open a test database (`createTestDb`,
// `startTestApp`), the one place `TEST_SQLITE_GROUP_COMMIT` reaches, so they would run there exactly as
// in the first run. Pure units without a database; SQLite opened through `connect` with its default (the
// owner lock, background checkpoints) or with each mode set by the test itself (group commit's own
// suite); and the server process, started with an environment of its test's own.
const sameWithGroupCommitOff = [
  // No database at all.
  'packages/server/src/config.test.ts',
  'packages/server/src/layers.test.ts',
  'packages/server/src/db/rows.test.ts',
  'packages/server/src/db/commit-memo.test.ts',
  'packages/server/src/db/written-tables.test.ts',
  'packages/server/src/http/answer-check.test.ts',
  'packages/server/src/security/hash-pool.test.ts',
  'packages/server/src/security/passwords.test.ts',
  'packages/server/src/modules/accounts/relying-party.test.ts',
  'packages/server/src/modules/accounts/totp.test.ts',
  'packages/server/src/modules/files/names.test.ts',
  'packages/server/src/modules/files/storage/storage.test.ts',
  'packages/server/src/modules/store/pricing.test.ts',
  'packages/server/src/modules/payments/providers/appstore/config.test.ts',
  'packages/server/src/modules/payments/providers/paymentwall/pingback.test.ts',
  'packages/server/src/modules/payments/providers/paymentwall/signature.test.ts',
  'packages/server/src/modules/payments/providers/paymentwall/widget.test.ts',
  'packages/server/src/ops/backup-store.test.ts',
  // SQLite through `connect`, in the mode the test names (or the default), not the test database's.
  'packages/server/src/db/group-commit.test.ts',
  'packages/server/src/db/owner-lock.test.ts',
  'packages/server/src/db/checkpoints.test.ts',
  // The server as a process of its own, on the environment its test gives it.
  'packages/server/src/main.test.ts',
];

// Files on PostgreSQL alone, which the run with group commit off has not: they would show as skipped.
const postgresOnly = ['tests/cluster/cluster.test.ts', 'packages/server/src/db/pg-introspector.test.ts'];

// A file named here that is not there (moved, renamed) would run again unnoticed: stop instead.
const gone = [...sameWithGroupCommitOff, ...postgresOnly].filter((file) => !existsSync(join(root, file)));
if (gone.length) {
  console.error(`scripts/test.mjs names files that are not there: ${gone.join(', ')}`);
  process.exit(1);
}

const runs = [
  { name: 'browser', label: 'e2e   │', projects: ['e2e'], workers: 2 },
  { name: 'rest', label: 'unit  │', projects: ['!e2e'], workers: 3 },
  {
    name: 'group-commit-off',
    label: 'alone │',
    projects: ['server', 'integration'],
    workers: 2,
    args: [...postgresOnly, ...sameWithGroupCommitOff].map((path) => `--exclude=${path}`),
    env: { TEST_SQLITE_GROUP_COMMIT: 'off', TEST_DATABASE_URL: '' },
  },
];
/** Starts a Vitest run; its promise answers the exit code. */
function start(r) {
  r.started = Date.now();
  r.done = run(
    r.label,
    node,
    [
      vitest,
      'run',
      ...r.projects.map((p) => `--project=${p}`),
      `--maxWorkers=${r.workers}`,
      ...(r.args ?? []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(out, 'vitest', `${r.name}.json`)}`,
    ],
    r.env,
  ).then((code) => {
    r.ended = Date.now();
    return code;
  });
  return r.done;
}

// The browser run decides the whole run's length: it starts at once, before the packages' build below,
// since it reads none of their output (its server runs from the sources; it builds the web app first).
const [browser, ...others] = runs;
start(browser);
// The packages' build output first (the start of the type check): the tests that start the server as a
// process run it, and two compilers writing it at once could hand them a half-written file. The type check
// and the runs' own check of the server's build (`server-build.ts`) then find it up to date and write nothing.
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const built = await run('types │', node, [tsc, '-b', 'packages/protocol', 'packages/client', 'packages/server']);
if (built !== 0) {
  console.error('The packages do not compile.');
  browser.done.child.kill();
  await browser.done;
  process.exit(1);
}
const checks = Promise.all([
  run('lint  │', 'npm', ['run', '--silent', 'lint']),
  run('types │', 'npm', ['run', '--silent', 'typecheck']),
]);

const codes = await Promise.all([browser.done, ...others.map(start)]);

// The ten slowest files of all runs, and the totals.
const files = [];
const failures = [];
let passed = 0;
let failed = 0;
for (const r of runs) {
  let report;
  try {
    report = JSON.parse(readFileSync(join(out, 'vitest', `${r.name}.json`), 'utf8'));
  } catch {
    console.error(`No report from the ${r.name} run.`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A file that failed outside its tests (a hook, an import) counts as one failure.
  failed += report.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed'),
  ).length;
  for (const file of report.testResults) {
    const name = file.name.slice(root.length) + (r.env ? ` (${r.name})` : '');
    files.push({ name, seconds: (file.endTime - file.startTime) / 1000 });
    const failedTests = file.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failedTests) failures.push({ name, test: a.fullName, message: a.failureMessages?.[0] });
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push({ name, test: '(the file itself)', message: file.message });
  }
}
files.sort((a, b) => b.seconds - a.seconds);
console.log('\nThe ten slowest files:');
for (const f of files.slice(0, 10)) console.log(`${f.seconds.toFixed(1).padStart(7)} s  ${f.name}`);
console.log('');
for (const r of runs) console.log(`${r.label} ${r.name} in ${Math.round((r.ended - r.started) / 1000)} s`);
// What failed, again at the end, where a log's tail shows it.
if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) {
    console.log(`  ${f.name}: ${f.test}`);
    const lines = String(f.message ?? '')
      .split('\n')
      .slice(0, 12);
    for (const line of lines) console.log(`      ${line}`);
  }
}
const [lint, types] = await checks;
if (lint !== 0) console.log('\nLint failed (its lines above, behind "lint  │").');
if (types !== 0) console.log('\nThe type check failed (its lines above, behind "types │").');
console.log(`\nIn ${Math.round((Date.now() - started) / 1000)} s, lint and types included.`);
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(codes.every((code) => code === 0) && failed === 0 && lint === 0 && types === 0 ? 0 : 1);
