import type { Migration } from './index.js';

/**
 * Issue 27, item 11: download URLs with a user name or password (`https://user:pass@host/…`) are
 * refused now, but rows stored before that still hold the credentials in clear, and a copied
 * database (or a backup) gives them away. This cuts the userinfo out of every stored URL and out of
 * the error texts that echoed it.
 *
 * The userinfo is what the URL's authority (after `://`, up to the first `/`, `\`, `?` or `#`)
 * holds up to its last `@`, as the URL standard reads it: `rtrim(a, replace(a, '@', ''))` trims
 * every character but `@` from the right, leaving the authority up to and including its last `@`.
 * A download still under way is failed with the reason the runner gives such a row (once cut, the
 * runner could no longer tell it came from a URL with credentials and would fetch it without them).
 */
export const m210_download_url_credentials: Migration = {
  version: 210,
  name: 'credentials cut out of stored download URLs',
  sql: `
WITH after_scheme AS (
  SELECT id, substr(url, 1, instr(url, '://') + 2) AS scheme, substr(url, instr(url, '://') + 3) AS rest
  FROM model_downloads WHERE instr(url, '://') > 0 AND instr(url, '@') > 0
), cut_path AS (
  SELECT id, scheme, rest, CASE WHEN instr(rest, '/') > 0 THEN substr(rest, 1, instr(rest, '/') - 1) ELSE rest END AS a FROM after_scheme
), cut_backslash AS (
  SELECT id, scheme, rest, CASE WHEN instr(a, char(92)) > 0 THEN substr(a, 1, instr(a, char(92)) - 1) ELSE a END AS a FROM cut_path
), cut_query AS (
  SELECT id, scheme, rest, CASE WHEN instr(a, '?') > 0 THEN substr(a, 1, instr(a, '?') - 1) ELSE a END AS a FROM cut_backslash
), authority AS (
  SELECT id, scheme, rest, CASE WHEN instr(a, '#') > 0 THEN substr(a, 1, instr(a, '#') - 1) ELSE a END AS a FROM cut_query
), credentials AS (
  SELECT id, scheme, rest, rtrim(a, replace(a, '@', '')) AS userinfo_at FROM authority
)
UPDATE model_downloads SET
  url = credentials.scheme || substr(credentials.rest, length(credentials.userinfo_at) + 1),
  error = CASE
    WHEN model_downloads.status IN ('queued', 'downloading', 'verifying')
      THEN 'This download was started from a URL with a user name or password, which Parley no longer uses: it was not resumed. Download it again from a URL that needs no credentials.'
    ELSE replace(
      replace(model_downloads.error, credentials.userinfo_at, ''),
      -- "user:password" without its @ (a message may quote it so); only a pair, which no ordinary word
      -- is (replace() with an empty pattern leaves the text as it is).
      CASE WHEN instr(credentials.userinfo_at, ':') > 1 AND length(credentials.userinfo_at) > 4
        THEN substr(credentials.userinfo_at, 1, length(credentials.userinfo_at) - 1) ELSE '' END,
      '')
  END,
  status = CASE WHEN model_downloads.status IN ('queued', 'downloading', 'verifying') THEN 'failed' ELSE model_downloads.status END
FROM credentials
WHERE credentials.id = model_downloads.id AND credentials.userinfo_at <> '';
`,
};
