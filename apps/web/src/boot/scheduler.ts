// The start's first stage (main.tsx): React's scheduler, on its own.
import 'scheduler';
