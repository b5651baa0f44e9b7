import type { IntlShape } from 'react-intl';
import { useIntl } from 'react-intl';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "just now", "5 minutes ago", "yesterday" within a week; the date after that; in `intl`'s language. */
export function describeTime(iso: string, intl: IntlShape, now = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const elapsed = now - at;
  if (elapsed < 45_000 && elapsed > -45_000) return intl.formatMessage({ id: 'ui.time.justNow' });
  if (Math.abs(elapsed) < 7 * 86_400_000) {
    for (const [unit, ms] of UNITS) {
      if (Math.abs(elapsed) >= ms) return intl.formatRelativeTime(-Math.round(elapsed / ms), unit, { numeric: 'auto' });
    }
    return intl.formatRelativeTime(-Math.round(elapsed / 60_000), 'minute', { numeric: 'auto' });
  }
  return intl.formatDate(at, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A timestamp as people read it, with the exact time on hover and for machines. */
export function Time({ iso }: { iso: string }) {
  const intl = useIntl();
  const at = Date.parse(iso);
  return (
    <time dateTime={iso} title={Number.isNaN(at) ? iso : intl.formatDate(at, { dateStyle: 'full', timeStyle: 'long' })}>
      {describeTime(iso, intl)}
    </time>
  );
}
