// The start's second stage (main.tsx): MUI, emotion, the theme and the providers every screen sits in.
export { AppProvider } from '@/app/provider';
