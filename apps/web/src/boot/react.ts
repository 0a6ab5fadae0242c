// The start's first stage (main.tsx): React and its DOM renderer, evaluated in a task of their own.
export { createRoot } from 'react-dom/client';
export { startTransition, StrictMode } from 'react';
