import { readdirSync, readFileSync } from 'node:fs';

/** Nice values of this process's threads, by thread id (Linux: read from /proc). */
export function threadNices(): Map<string, number> {
  const nices = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Field 19 is the nice value; the name in field 2 may hold spaces, so count from its ")".
      nices.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended while being read.
    }
  }
  return nices;
}
