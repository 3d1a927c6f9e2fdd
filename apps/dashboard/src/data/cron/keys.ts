export const cronKeys = {
  all: (ref: string) => ['cron', ref] as const,
  jobs: (ref: string) => [...cronKeys.all(ref), 'jobs'] as const,
  runs: (ref: string, jobid: string) => [...cronKeys.all(ref), 'runs', jobid] as const,
}
