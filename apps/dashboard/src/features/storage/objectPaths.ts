import { FOLDER_PLACEHOLDER, type StorageItem } from '../../data/storage/objects'

/** 'a/b' + 'c.txt' -> 'a/b/c.txt'; '' + 'c.txt' -> 'c.txt'. */
export const joinPath = (folder: string, name: string) => (folder ? `${folder}/${name}` : name)

/** The folders of a path, for breadcrumbs: 'a/b' -> [{name:'a', path:'a'}, {name:'b', path:'a/b'}]. */
export function crumbsOf(folder: string): { name: string; path: string }[] {
  const parts = folder.split('/').filter(Boolean)
  return parts.map((name, index) => ({
    name,
    path: parts.slice(0, index + 1).join('/'),
  }))
}

export const isFolder = (item: StorageItem) => item.id === null

/** What a folder shows: its placeholder object is an implementation detail. */
export const visibleItems = (items: StorageItem[]) => items.filter((item) => item.name !== FOLDER_PLACEHOLDER)

export type PreviewKind = 'image' | 'text' | 'none'

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|sql|x-sh|yaml|x-yaml|toml|csv))/

export function previewKind(mimetype: string | undefined): PreviewKind {
  const type = (mimetype ?? '').toLowerCase()
  if (/^image\/(png|jpe?g|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)$/.test(type)) return 'image'
  if (TEXT_TYPES.test(type)) return 'text'
  return 'none'
}

/** Folder and file names a user may type: no slashes at the ends, no empty, '.' or '..' segments. */
export function checkObjectPath(path: string): string | null {
  const trimmed = path.trim()
  if (!trimmed) return 'Enter a name'
  if (trimmed.startsWith('/') || trimmed.endsWith('/')) return 'Names cannot start or end with /'
  if (trimmed.split('/').some((part) => part === '' || part === '.' || part === '..')) return "Names cannot hold empty, '.' or '..' parts"
  if (hasControlCharacter(trimmed)) return 'Names cannot hold control characters'
  return null
}

export const hasControlCharacter = (text: string) => [...text].some((char) => char.charCodeAt(0) < 32 || char.charCodeAt(0) === 127)
