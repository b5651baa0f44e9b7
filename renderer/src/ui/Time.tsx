const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });
const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "just now", "5 minutes ago", "yesterday" within a week; the date after that. */
export function describeTime(iso: string, now = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const elapsed = now - at;
  if (elapsed < 45_000 && elapsed > -45_000) return 'just now';
  if (Math.abs(elapsed) < 7 * 86_400_000) {
    for (const [unit, ms] of UNITS) {
      if (Math.abs(elapsed) >= ms) return relativeFormat.format(-Math.round(elapsed / ms), unit);
    }
    return relativeFormat.format(-Math.round(elapsed / 60_000), 'minute');
  }
  return dateFormat.format(at);
}

/** A timestamp as people read it, with the exact time on hover and for machines. */
export function Time({ iso }: { iso: string }) {
  const at = Date.parse(iso);
  return (
    <time dateTime={iso} title={Number.isNaN(at) ? iso : fullFormat.format(at)}>
      {describeTime(iso)}
    </time>
  );
}
