import type { Chat, ChatMessage, ChatSummary } from '@stratum/contracts'
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { assistantKeys } from './keys'

/** The caller's chats on this project, used last first. */
export const chatsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: assistantKeys.chats(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /platform/projects/{ref}/assistant/chats', { params: { ref }, signal }) : skipToken,
  })

export const chatQuery = (ref: string | undefined, id: string | undefined) =>
  queryOptions({
    queryKey: assistantKeys.chat(ref ?? '', id ?? ''),
    queryFn: ref && id ? ({ signal }) => request('GET /platform/projects/{ref}/assistant/chats/{id}', { params: { ref, id }, signal }) : skipToken,
    // The panel's own state is newer than the server's while a turn streams: no refetch behind its back.
    staleTime: Infinity,
  })

export const useChats = (ref: string | undefined) => useQuery(chatsQuery(ref))
export const useChatDetail = (ref: string | undefined, id: string | undefined) => useQuery(chatQuery(ref, id))

/** Keeps the list in step with a chat the server just answered. */
function storeChat(queryClient: ReturnType<typeof useQueryClient>, ref: string, chat: Chat) {
  queryClient.setQueryData(assistantKeys.chat(ref, chat.id), chat)
  queryClient.setQueryData<ChatSummary[]>(assistantKeys.chats(ref), (list) => {
    const { messages: _messages, ...summary } = chat
    const others = (list ?? []).filter((item) => item.id !== chat.id)
    return [summary, ...others]
  })
}

export function useCreateChat(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name?: string) => request('POST /platform/projects/{ref}/assistant/chats', { params: { ref }, body: name === undefined ? {} : { name } }),
    onSuccess: (chat) => storeChat(queryClient, ref, chat),
  })
}

export function useUpdateChat(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, ...change }: { id: string; name?: string; messages?: ChatMessage[] }) =>
      request('PATCH /platform/projects/{ref}/assistant/chats/{id}', { params: { ref, id }, body: change }),
    onSuccess: (chat) => storeChat(queryClient, ref, chat),
  })
}

export function useDeleteChat(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => request('DELETE /platform/projects/{ref}/assistant/chats/{id}', { params: { ref, id } }),
    onSuccess: (_nothing, id) => {
      queryClient.removeQueries({ queryKey: assistantKeys.chat(ref, id) })
      queryClient.setQueryData<ChatSummary[]>(assistantKeys.chats(ref), (list) => list?.filter((item) => item.id !== id))
    },
  })
}
