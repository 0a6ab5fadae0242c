/**
 * The browser's resume: the page becomes visible again after being hidden (another tab, another
 * app, the screen off). The first visible state at load is not a resume.
 */
export function onVisibleAgain(listener: () => void, doc: Document = document): () => void {
  let hidden = doc.visibilityState === 'hidden';
  const onChange = () => {
    if (doc.visibilityState === 'hidden') hidden = true;
    else if (hidden) {
      hidden = false;
      listener();
    }
  };
  doc.addEventListener('visibilitychange', onChange);
  return () => doc.removeEventListener('visibilitychange', onChange);
}
