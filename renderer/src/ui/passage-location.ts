/** Where a passage sits, as a person says it: "page 4", "rows 12–18", "§ Allowances" — never character offsets. */
export function humanLocation(location: { page?: number | string; page_end?: number | string; section?: string | number; row_start?: number | string; row_end?: number | string }): string {
  const parts: string[] = [];
  if (location.page !== undefined) {
    parts.push(location.page_end !== undefined && location.page_end !== location.page ? `pages ${location.page}–${location.page_end}` : `page ${location.page}`);
  }
  if (location.row_start !== undefined) {
    parts.push(location.row_end !== undefined && location.row_end !== location.row_start ? `rows ${location.row_start}–${location.row_end}` : `row ${location.row_start}`);
  }
  if (location.section !== undefined && String(location.section).trim() !== '') parts.push(`§ ${location.section}`);
  return parts.join(' · ');
}
