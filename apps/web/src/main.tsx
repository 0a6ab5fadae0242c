// The first script of every page, kept small: it waits for the page the server drew (the bar, and
// the catalog's cards on the store's page) to be painted, then fetches and starts the app. A fetch
// begun before that paint competes with it on a slow phone's network, and a start before it holds
// it back by the whole start. A hidden page paints nothing and runs no animation frames, so it
// starts at once.
import { paths } from '@/app/paths';

function begin() {
  void import('./start');
  // The store's front page needs its page chunk at once: it is fetched beside the app's.
  if (window.location.pathname === paths.home.path) void import('./app/routes/catalog');
}

if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(begin, 0));
else begin();
