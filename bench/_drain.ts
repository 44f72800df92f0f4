/**
 * Drains a streamed export and measures it: time, bytes written and the growth of the process's
 * resident memory while it ran (sampled every 20 ms), which must stay far below the file's size.
 */
export async function drain(label: string, source: AsyncIterable<string | Uint8Array>) {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const start = performance.now();
  let bytes = 0;
  for await (const chunk of source)
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  const ms = performance.now() - start;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `${label}: ${(ms / 1000).toFixed(2)} s, ${mb(bytes)} written, memory growth ${mb(peak - rss0)}`,
  );
  return ms;
}
