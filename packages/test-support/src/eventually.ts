/** Polls `probe` until it holds or the time is up; answers its last value. */
export async function eventually<T>(probe: () => Promise<T>, holds: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (holds(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
