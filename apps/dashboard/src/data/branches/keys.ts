export const branchKeys = {
  all: ['branches'] as const,
  list: (ref: string) => [...branchKeys.all, 'list', ref] as const,
  diff: (branchId: string) => [...branchKeys.all, 'diff', branchId] as const,
}
