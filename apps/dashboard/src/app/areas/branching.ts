// Loaded on demand: branching (the Branches page and its dialogs), the Add-ons page and the Point in time page.
export { AddonsPage, BranchesPage, PitrPage } from '../../features/branching'
