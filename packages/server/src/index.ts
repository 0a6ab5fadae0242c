export { buildApp } from './app.js';
export type { AppContext, BuildOptions } from './context.js';
export { loadConfig, ConfigError, defaultRateLimits } from './config.js';
export type { Config, RateLimits } from './config.js';
export { connect } from './db/connect.js';
export type { Db } from './db/connect.js';
