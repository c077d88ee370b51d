/** The promoter's bounty pages in one part: one entry in the app's route table (routes.tsx), one download. */
export { default as BountiesPage } from './bounties-page';
export { default as BountyPage } from './bounty-page';
