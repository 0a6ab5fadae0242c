import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { Provider } from '@till/protocol';

/** One way to pay; `name` replaces the route's usual name (credits say how many they take). */
export interface PaymentRouteOption {
  provider: Provider;
  name?: string;
}

/**
 * The payment routes as radio buttons, each with the provider's name and a line on what happens
 * next. The line describes the radio (`aria-describedby`) rather than joining its name, so that a
 * screen reader says the name first and the route can be found by its name alone.
 */
export function PaymentRouteChoice({
  routes,
  value,
  onChange,
  legend,
}: {
  routes: readonly PaymentRouteOption[];
  value: Provider | null;
  onChange: (provider: Provider) => void;
  legend: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <FormControl component="fieldset" sx={{ width: '100%' }}>
      <FormLabel component="legend">{legend}</FormLabel>
      <RadioGroup value={value ?? ''} onChange={(e) => onChange(e.target.value as Provider)} name={`${id}-route`}>
        {routes.map(({ provider, name }) => {
          const hintId = `${id}-${provider}-hint`;
          const hint = t(`providerHints.${provider}`, { defaultValue: '' });
          return (
            <Box key={provider} sx={{ py: 0.5 }}>
              <FormControlLabel
                value={provider}
                control={<Radio slotProps={{ input: hint ? { 'aria-describedby': hintId } : {} }} />}
                label={name ?? t(`providers.${provider}`, { defaultValue: provider })}
                sx={{ mr: 0 }}
              />
              {hint ? (
                <Typography id={hintId} variant="body2" color="text.secondary" sx={{ pl: 4, mt: -0.5 }}>
                  {hint}
                </Typography>
              ) : null}
            </Box>
          );
        })}
      </RadioGroup>
    </FormControl>
  );
}
