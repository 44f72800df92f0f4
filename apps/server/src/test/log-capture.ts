/** The server's log lines collected in memory, for tests that read what the log holds. */
export interface LogCapture {
  /** Pass as the app's logger: `startTestApp({}, { logger: capture.logger })`. */
  logger: { level: string; stream: { write(line: string): void } };
  /** Every line written so far, as written (JSON text). */
  lines: string[];
  /** Every line parsed. */
  records(): Array<Record<string, unknown>>;
  /** All lines as one text, to search for what must not be there. */
  text(): string;
  clear(): void;
}

export function captureLog(level = 'info'): LogCapture {
  const lines: string[] = [];
  return {
    logger: { level, stream: { write: (line: string) => void lines.push(line) } },
    lines,
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    text: () => lines.join(''),
    clear: () => void lines.splice(0),
  };
}
