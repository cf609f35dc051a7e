/**
 * A lock's wait as its refusal words it: minutes up to two hours ("Try again in 14 minutes"),
 * hours beyond, as a deploy's locks may last a day (docs/decisions/054-deploy-locks.md). The
 * pages word it themselves from `Retry-After`; this is for API clients reading the message.
 */
export function waitInWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `${Math.ceil(seconds / 3600)} hours`;
}
