import { AI_KEY_NOT_SET_MESSAGE, ASSISTANT_CHAT_NAME_MAX, ASSISTANT_DEFAULT_CHAT_NAME, ASSISTANT_DISABLED_NOTICE } from '@stratum/contracts'
import { Eraser, Sparkles, X } from 'lucide-react'
import { useState } from 'react'
import { useMatch } from 'react-router'
import { IconButton } from '../../components/ui/Button'
import { LoadingState } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { useAiKeyCheck } from '../../data/ai/useAiKeyCheck'
import { errorMessage } from '../../data/api'
import { useChatDetail, useChats, useCreateChat, useDeleteChat, useUpdateChat } from '../../data/assistant/chats'
import { useAssistantContext } from '../../data/assistant/context'
import { useSnippet } from '../../data/content/useSnippet'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { ChatsPopover } from './ChatsPopover'
import { ChatView, type TurnContext } from './ChatView'
import { AssistantCrashBoundary } from './CrashFallback'
import { toStoredChat, type AssistantUIMessage } from './message-shape'
import './assistant.css'

const lastChatKey = (ref: string) => `stratum.assistant.lastChat.${ref}`

/** A new chat is named after its first question, cut at a word. */
function nameFromQuestion(question: string): string {
  const line = question.split('\n')[0]!.trim()
  if (line.length <= 40) return line || ASSISTANT_DEFAULT_CHAT_NAME
  const cut = line.slice(0, 40)
  return `${cut.slice(0, cut.lastIndexOf(' ') > 20 ? cut.lastIndexOf(' ') : 40)}…`.slice(0, ASSISTANT_CHAT_NAME_MAX)
}

/**
 * The AI assistant of the right panel (the API docs and assistant spec's assistant panel): header with
 * the chats, clear and close; the chat; the input with its notices. Chats live on the server per user and project.
 */
export function AssistantPanel({ onClose }: { onClose: () => void }) {
  const { ref, project } = useCurrentProject()
  const orgSlug = project?.organization_slug
  const toast = useToast()
  const keyCheck = useAiKeyCheck()
  const context = useAssistantContext(ref)
  const chats = useChats(ref)
  const createChat = useCreateChat(ref)
  const updateChat = useUpdateChat(ref)
  const deleteChat = useDeleteChat(ref)
  const canSaveSnippets = useCan(orgSlug, 'user_content.create')
  const canDeploy = useCan(orgSlug, 'sql.write')
  const [selected, setSelected] = useState<string | null>(() => localStorage.getItem(lastChatKey(ref)))
  const [firstQuestion, setFirstQuestion] = useState<{ chatId: string; text: string } | null>(null)
  // Bumped when the messages are cleared: the chat view starts again from the stored (empty) chat.
  const [generation, setGeneration] = useState(0)

  // The snippet open in the SQL editor travels with each question as context.
  const editorMatch = useMatch('/project/:ref/sql/:id')
  const openSnippet = useSnippet(ref, editorMatch?.params.id)
  const turnContext = (): TurnContext => ({
    snippet: openSnippet.data ? { id: openSnippet.data.id, name: openSnippet.data.name, sql: openSnippet.data.content?.sql ?? '' } : null,
  })

  const list = chats.data ?? []
  const currentId = list.some((chat) => chat.id === selected) ? selected : (list[0]?.id ?? null)
  const detail = useChatDetail(ref, currentId ?? undefined)
  const current = list.find((chat) => chat.id === currentId)

  const select = (id: string) => {
    setSelected(id)
    localStorage.setItem(lastChatKey(ref), id)
  }
  const failed = (what: string) => (error: unknown) => toast.error(`${what}: ${errorMessage(error)}`)

  const newChat = (name?: string, then?: (id: string) => void) =>
    createChat.mutate(name, {
      onSuccess: (chat) => {
        select(chat.id)
        then?.(chat.id)
      },
      onError: failed('Failed to create a chat'),
    })

  const saveTurn = (chatId: string, messages: AssistantUIMessage[]) => {
    const chat = list.find((item) => item.id === chatId)
    // An untitled chat takes the name of its first question.
    const firstUser = messages.find((message) => message.role === 'user')
    const firstText = firstUser?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')
    const rename = chat?.name === ASSISTANT_DEFAULT_CHAT_NAME && firstText ? nameFromQuestion(firstText) : undefined
    updateChat.mutate({ id: chatId, messages: toStoredChat(messages), ...(rename ? { name: rename } : {}) }, { onError: failed('Failed to save the chat') })
  }

  const clearMessages = async () => {
    if (!currentId) return
    await updateChat.mutateAsync({ id: currentId, messages: [] }).catch(failed('Failed to clear the messages'))
    setGeneration((value) => value + 1)
  }

  const notices: string[] = []
  if (keyCheck.data && !keyCheck.data.hasKey) notices.push(keyCheck.data.message || AI_KEY_NOT_SET_MESSAGE)
  if (context.data?.disabled) notices.push(ASSISTANT_DISABLED_NOTICE)
  const inputDisabled = !keyCheck.data?.hasKey || Boolean(context.data?.disabled)

  let body
  if (chats.isPending || (currentId && detail.isPending)) body = <LoadingState label="Loading chats…" />
  else if (chats.isError) body = <p className="assistant-note">{errorMessage(chats.error)}</p>
  else if (detail.isError) body = <p className="assistant-note">{errorMessage(detail.error)}</p>
  else
    body = (
      <AssistantCrashBoundary onClearMessages={clearMessages}>
        <ChatView
          key={`${currentId ?? 'new'}.${generation}`}
          projectRef={ref}
          chat={currentId ? (detail.data ?? null) : null}
          initialQuestion={firstQuestion && firstQuestion.chatId === currentId ? firstQuestion.text : undefined}
          inputDisabled={inputDisabled}
          notices={notices}
          canSaveSnippets={canSaveSnippets}
          canDeploy={canDeploy}
          turnContext={turnContext}
          onAskWithoutChat={(text) => newChat(nameFromQuestion(text), (chatId) => setFirstQuestion({ chatId, text }))}
          onTurnDone={(messages) => currentId && saveTurn(currentId, messages)}
        />
      </AssistantCrashBoundary>
    )

  return (
    <aside className="side-panel assistant-panel" aria-label="AI assistant" data-testid="assistant-panel">
      <div className="side-panel-header">
        <Sparkles size={16} aria-hidden="true" />
        <ChatsPopover
          chats={list}
          currentId={currentId}
          currentName={current?.name ?? 'New chat'}
          onSelect={select}
          onNew={() => newChat()}
          onRename={(id, name) => updateChat.mutate({ id, name }, { onError: failed('Failed to rename the chat') })}
          onDelete={(id) =>
            deleteChat.mutate(id, {
              onSuccess: () => {
                if (id === currentId) setSelected(list.find((chat) => chat.id !== id)?.id ?? null)
              },
              onError: failed('Failed to delete the chat'),
            })
          }
        />
        <span className="spacer" />
        <IconButton
          size="sm"
          label="Clear messages"
          icon={<Eraser size={15} aria-hidden="true" />}
          disabled={!currentId || (current?.message_count ?? 0) === 0}
          onClick={() => void clearMessages()}
        />
        <IconButton size="sm" label="Close AI assistant" icon={<X size={16} aria-hidden="true" />} onClick={onClose} />
      </div>
      {body}
    </aside>
  )
}
