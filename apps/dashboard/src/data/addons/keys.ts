export const addonKeys = {
  all: ['addons'] as const,
  project: (ref: string) => [...addonKeys.all, ref] as const,
  list: (ref: string) => [...addonKeys.project(ref), 'list'] as const,
  pitrWindow: (ref: string) => [...addonKeys.project(ref), 'pitr-window'] as const,
}
