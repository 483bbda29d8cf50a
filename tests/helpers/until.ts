/** Polls `check` every 5 ms until it holds (throws after `ms`); answers how long that took, in ms. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<number> {
  const start = performance.now()
  while (!(await check())) {
    if (performance.now() - start > ms) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
  return performance.now() - start
}
