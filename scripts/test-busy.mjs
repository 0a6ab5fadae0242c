// The whole suite while a second process keeps both cores busy: no test may depend on the machine's
// speed. The load spins one thread per core at normal priority until the suite ends.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const spin = `
const { Worker } = require('node:worker_threads');
for (let i = 1; i < ${availableParallelism()}; i++) new Worker('for (;;);', { eval: true });
for (;;);
`;
const load = spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
console.log(`test:busy: ${availableParallelism()} spinning threads in process ${load.pid}`);
const suite = spawn('node', [fileURLToPath(new URL('test.mjs', import.meta.url)), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
const code = await new Promise((resolve) => suite.on('exit', (c) => resolve(c ?? 1)));
load.kill('SIGKILL');
process.exit(code);
