import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { CouponStatus, type CouponLine } from './coupon-status';

/**
 * A coupon code, applied with a button and removed with another. What the coupon does, or why it
 * cannot be used and what to do then, is the `status` line under it.
 */
export function CouponField({
  applied,
  onApply,
  onRemove,
  status,
}: {
  applied: string;
  onApply: (code: string) => void;
  onRemove: () => void;
  status: CouponLine | null;
}) {
  const { t } = useTranslation();
  const [input, setInput] = useState(applied);
  const code = input.trim().toUpperCase();
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (code) onApply(code);
      }}
      sx={{ mt: 1 }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          label={t('coupon.label')}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          size="small"
          fullWidth
          autoComplete="off"
          error={status?.tone === 'error'}
          slotProps={{ htmlInput: { 'aria-describedby': 'coupon-status', maxLength: 64 } }}
        />
        {applied && applied === code ? (
          <Button
            onClick={() => {
              setInput('');
              onRemove();
            }}
            aria-label={t('coupon.removeNamed', { code: applied })}
            sx={{ flexShrink: 0, minHeight: 40 }}
          >
            {t('coupon.remove')}
          </Button>
        ) : (
          <Button type="submit" variant="outlined" disabled={!code} sx={{ flexShrink: 0, minHeight: 40 }}>
            {t('coupon.apply')}
          </Button>
        )}
      </Box>
      <Box id="coupon-status" sx={{ minHeight: 24, mt: 0.5 }}>
        {status ? <CouponStatus {...status} /> : null}
      </Box>
    </Box>
  );
}
