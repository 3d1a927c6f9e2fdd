/** Placeholder while the page is written. */
export function CronJobsPage() {
  return null
}
