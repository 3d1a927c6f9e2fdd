import type { Chat, ChatMessage, ChatSummary } from '@stratum/contracts'
import type { Queryable } from '../../store/db.js'

/**
 * The assistant's chats, per user and project (017_assistant.sql). Every query names the user:
 * a chat id alone never reaches another member's chat, and another member's id reads as not found.
 */

interface ChatRow {
  id: string
  name: string
  messages: ChatMessage[]
  message_count: number
  created_at: Date
  updated_at: Date
}

const toSummary = (row: ChatRow): ChatSummary => ({
  id: row.id,
  name: row.name,
  message_count: Number(row.message_count),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

const toChat = (row: ChatRow): Chat => ({ ...toSummary(row), messages: row.messages })

export interface ChatOwner {
  userId: string
  projectRef: string
}

/** Newest first: the panel opens the chat used last. */
export async function listChats(db: Queryable, owner: ChatOwner): Promise<ChatSummary[]> {
  const { rows } = await db.query<ChatRow>(
    `SELECT id, name, jsonb_array_length(messages) AS message_count, created_at, updated_at FROM assistant_chats
     WHERE user_id = $1 AND project_ref = $2 ORDER BY updated_at DESC, id`,
    [owner.userId, owner.projectRef],
  )
  return rows.map(toSummary)
}

export async function getChat(db: Queryable, owner: ChatOwner, id: string): Promise<Chat | null> {
  const { rows } = await db.query<ChatRow>(
    `SELECT *, jsonb_array_length(messages) AS message_count FROM assistant_chats WHERE id = $1 AND user_id = $2 AND project_ref = $3`,
    [id, owner.userId, owner.projectRef],
  )
  return rows[0] ? toChat(rows[0]) : null
}

export async function createChat(db: Queryable, owner: ChatOwner, name: string): Promise<Chat> {
  const { rows } = await db.query<ChatRow>(
    `INSERT INTO assistant_chats (user_id, project_ref, name) VALUES ($1, $2, $3) RETURNING *, 0 AS message_count`,
    [owner.userId, owner.projectRef, name],
  )
  return toChat(rows[0]!)
}

/** Renames and/or replaces the messages; null when the chat is not the caller's. */
export async function updateChat(db: Queryable, owner: ChatOwner, id: string, change: { name?: string; messages?: ChatMessage[] }): Promise<Chat | null> {
  const { rows } = await db.query<ChatRow>(
    `UPDATE assistant_chats SET name = coalesce($4, name), messages = coalesce($5::jsonb, messages), updated_at = now()
     WHERE id = $1 AND user_id = $2 AND project_ref = $3
     RETURNING *, jsonb_array_length(messages) AS message_count`,
    [id, owner.userId, owner.projectRef, change.name ?? null, change.messages ? JSON.stringify(change.messages) : null],
  )
  return rows[0] ? toChat(rows[0]) : null
}

export async function deleteChat(db: Queryable, owner: ChatOwner, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM assistant_chats WHERE id = $1 AND user_id = $2 AND project_ref = $3`, [id, owner.userId, owner.projectRef])
  return (rowCount ?? 0) > 0
}
