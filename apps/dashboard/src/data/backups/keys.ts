export const backupKeys = {
  all: ['backups'] as const,
  project: (ref: string) => [...backupKeys.all, ref] as const,
  list: (ref: string) => [...backupKeys.project(ref), 'list'] as const,
  downloadable: (ref: string) => [...backupKeys.project(ref), 'downloadable'] as const,
}
