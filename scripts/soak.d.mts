/** Types of scripts/soak.mjs's pure helpers, for its unit test. */
export interface SoakOptions {
  runs: number;
  load: number;
  build: boolean;
  vitestArgs: string[];
}
export interface JsonReport {
  testResults?: Array<{
    name: string;
    status?: string;
    message?: string;
    startTime?: number;
    endTime?: number;
    assertionResults?: Array<{ fullName: string; status: string; failureMessages?: string[] }>;
  }>;
}
export function parseArgs(argv: string[], env?: Record<string, string | undefined>): SoakOptions;
export function failuresOf(report: JsonReport): string[];
export function e2eOverlaps(report: JsonReport): string[];
