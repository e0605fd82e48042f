// The headless Chromium the browser tests drive (scripts/chromium.js: from npm, or MINE_ASSIST_CHROMIUM).
import { type Browser, chromium, type LaunchOptions } from 'playwright-core';

const { chromiumLaunch } = require('../scripts/chromium') as { chromiumLaunch(): LaunchOptions };

export const launchChromium = (): Promise<Browser> => chromium.launch(chromiumLaunch());
