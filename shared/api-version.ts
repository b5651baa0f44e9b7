/** Dated API releases, oldest first; the last one is what every response names in `Parley-Api-Version`. */
export const API_RELEASES = ['2024-02-26', '2024-02-27', '2024-02-29', '2024-04-01', '2024-05-05'] as const;
export const API_VERSION = API_RELEASES[API_RELEASES.length - 1];
export const API_VERSION_HEADER = 'Parley-Api-Version';
