export const githubKeys = {
  all: ['github'] as const,
  connections: (organizationId: number) => [...githubKeys.all, 'connections', organizationId] as const,
  branch: (connectionId: number, branchName: string) => [...githubKeys.all, 'branch', connectionId, branchName] as const,
}
