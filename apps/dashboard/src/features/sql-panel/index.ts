// The right panel's SQL editor; the shell imports this entry lazily (shell/SidePanel.tsx), when the panel first opens.
export { SqlPanel } from './SqlPanel'
