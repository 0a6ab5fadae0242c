import { backupsTab, failedBackupTab } from './suites/backups.js';
import { viewports } from './support/env.js';

backupsTab(viewports[0]);
failedBackupTab(viewports[0]);
