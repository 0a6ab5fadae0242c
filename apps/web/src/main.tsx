// The first script of every page, kept small: once the page the server drew (the bar, and the
// catalog's cards on the store's page) has been painted, it fetches and starts the app. A fetch
// begun before that paint competes with it on a slow phone's network, and a start before it holds
// it back by the whole start. A hidden page paints nothing and runs no animation frames, so it
// starts at once.
//
// The app starts in stages, each imported once the one before has run and the browser has had the
// main thread back: a module graph is evaluated in one task, and the whole app's at once held a
// phone's main thread for several hundred milliseconds (decision record 015). So that the stages
// wait for each other's evaluation but never for the network, the entry first asks for every chunk
// that runs at start, a few per task; the build writes their list here (`startChunkList`,
// vite-plugins.ts). In development there is no list, and the imports fetch what they need.
declare const __TILL_START_CHUNKS__: string[];
function startChunks(): string[] {
  try {
    return __TILL_START_CHUNKS__;
  } catch {
    return [];
  }
}
/** Requests set up per task: each takes about a millisecond of a slow phone's main thread. */
const PRELOADS_PER_TASK = 4;

/** Gives the main thread back to the browser: input, rendering and other tasks run before the next step. */
function nextTask(): Promise<void> {
  // A hidden page has nobody to answer, and its timers may wait up to a second.
  if (document.visibilityState === 'hidden') return Promise.resolve();
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** Fetches (and compiles) the start's chunks without running them, as Vite's preload helper would. */
async function preloadStart(): Promise<void> {
  const chunks = startChunks();
  for (let i = 0; i < chunks.length; i += PRELOADS_PER_TASK) {
    if (i > 0) await nextTask();
    for (const path of chunks.slice(i, i + PRELOADS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = new URL(`${import.meta.env.BASE_URL}${path}`, document.baseURI).href;
      document.head.appendChild(link);
    }
  }
}

async function begin() {
  await preloadStart();
  await nextTask();
  // React's scheduler opens its message channel as it is evaluated, the first one on the page and
  // several milliseconds of a slow phone's main thread: on its own, before React DOM's evaluation.
  await import('./boot/scheduler');
  await nextTask();
  await import('./boot/react');
  await nextTask();
  await import('./boot/ui');
  await nextTask();
  // The app: the SDK, cache, texts and cart, then the first render (a transition, in short slices).
  // On the store's front page it imports the catalog's chunk at once (`preloadPage`).
  await import('./start');
}

// The built page asks for this script only once it has painted (`entryAfterFirstPaint`, vite-plugins.ts);
// the development server's page names it in a plain tag, and it waits here.
const painted = performance.getEntriesByType('paint').length > 0;
if (document.visibilityState === 'visible' && !painted) requestAnimationFrame(() => setTimeout(() => void begin(), 0));
else void begin();
