import { useEffect, useRef } from 'react';

/**
 * Runs `run` once, after the tree it is placed in has been committed: React runs a passive effect
 * after the commit's task, so work that can wait for the app to be live (and would lengthen the
 * start's tasks) goes there.
 */
export function AfterFirstCommit({ run }: { run: () => void }) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    run();
  }, [run]);
  return null;
}
