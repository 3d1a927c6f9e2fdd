export const assistantKeys = {
  all: ['assistant'] as const,
  project: (ref: string) => [...assistantKeys.all, ref] as const,
  context: (ref: string) => [...assistantKeys.project(ref), 'context'] as const,
  chats: (ref: string) => [...assistantKeys.project(ref), 'chats'] as const,
  chat: (ref: string, id: string) => [...assistantKeys.chats(ref), id] as const,
}
