import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

// Beyond the grace: closing the database and storage after the requests are done or cut. A close
// that hangs longer than this ends the process with code 1 rather than never.
const CLOSE_MARGIN_MS = 5000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Till cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const { app, drain } = await buildApp(config);
  const graceMs = config.shutdownGraceMs;
  closeWithGrace({ delay: graceMs + CLOSE_MARGIN_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal, graceMs }, 'shutting down');
    // Requests in flight get the grace; new ones are refused with 503 meanwhile (http/shutdown.ts).
    const cut = await drain.start(app, graceMs);
    if (cut) app.log.warn({ cut }, 'requests still running at the end of the grace were cut');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
}

await main();
