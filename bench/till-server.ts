// Till as the benchmarks start it (bench/peers, bench/shop): its own process, the configuration from the environment
// (SQLite file, limits raised so that the load is not refused), its address printed as one JSON line.
import './built.js';
import type { AddressInfo } from 'node:net';
import { buildApp, loadConfig } from '../packages/server/dist/index.js';

const config = loadConfig(process.env);
const { app } = await buildApp(config, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
