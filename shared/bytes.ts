const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];
/** The same steps as Intl names them (sanctioned units of ECMA-402). */
const INTL_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * `1536` → `1.5 KB`, `4_700_000_000` → `4.4 GB`: sizes people read, not bytes they count. With a
 * locale other than English, number and unit as that language writes them (`1,5 kB` in German);
 * without one, or in English, the text above (the service's messages and the e2e tests use it).
 */
export function formatBytes(bytes: number, locale?: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  if (locale === undefined || /^en\b/i.test(locale)) return `${value.toFixed(digits)} ${UNITS[unit]}`;
  return new Intl.NumberFormat(locale, { style: 'unit', unit: INTL_UNITS[unit], unitDisplay: 'short', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** The longest start of `text` that fits `bytes` of UTF-8, never splitting a character. */
export function cutUtf8(text: string, bytes: number): string {
  if (bytes <= 0) return '';
  const encoded = new TextEncoder().encode(text);
  let end = Math.min(bytes, encoded.length);
  // Back off continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && end < encoded.length && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(encoded.subarray(0, end));
}
