import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';

/** The units of an ISO 8601 period the server stores (`P1M`): days, weeks, months, years. */
export const PERIOD_UNITS = ['D', 'W', 'M', 'Y'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/** The periods most shops sell, offered by name; anything else is "custom". */
export const PERIOD_PRESETS = ['P1W', 'P1M', 'P3M', 'P1Y'] as const;
const CUSTOM = 'custom';
const MAX_COUNT = 9999;

/** An ISO period split into its count and unit, or null when the text is not one the server takes. */
export function parsePeriod(text: string): { count: number; unit: PeriodUnit } | null {
  const m = /^P([1-9]\d{0,3})([DWMY])$/.exec(text.trim());
  return m ? { count: Number(m[1]), unit: m[2] as PeriodUnit } : null;
}

/** The ISO period of a count and a unit (`3`, `M` -> `P3M`), or '' when the count is not 1 to 9999. */
export function toPeriod(count: string | number, unit: PeriodUnit): string {
  const n = typeof count === 'number' ? count : Number(count.trim());
  return Number.isInteger(n) && n >= 1 && n <= MAX_COUNT ? `P${n}${unit}` : '';
}

/**
 * Picks a subscription's period: monthly, every 3 months, yearly, weekly, or a custom number of
 * days, weeks, months or years. It answers the ISO 8601 duration the server stores (`P1M`, `P3M`,
 * `P10D`), or '' while a custom count is not a whole number from 1 to 9999 (the form then says the
 * period is required or invalid).
 */
export function PeriodPicker({
  value,
  onChange,
  error,
  label,
}: {
  value: string;
  onChange: (period: string) => void;
  /** A translated message under the picker. */
  error?: string | undefined;
  label?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const parsed = parsePeriod(value);
  const isPreset = (PERIOD_PRESETS as readonly string[]).includes(value);
  const [custom, setCustom] = useState(!isPreset && value !== '');
  const [count, setCount] = useState(parsed ? String(parsed.count) : '1');
  const [unit, setUnit] = useState<PeriodUnit>(parsed?.unit ?? 'M');
  const choice = custom ? CUSTOM : isPreset ? value : '';
  const countError = custom && !toPeriod(count, unit);
  return (
    <Box role="group" aria-label={label ?? t('admin.period')} sx={{ mt: 2, mb: 1 }}>
      <TextField
        select
        fullWidth
        id={`${id}-choice`}
        label={label ?? t('admin.period')}
        value={choice}
        error={Boolean(error) && !custom}
        helperText={!custom && error ? error : t('admin.periodPickerHint')}
        onChange={(e) => {
          const next = e.target.value;
          if (next === CUSTOM) {
            setCustom(true);
            onChange(toPeriod(count, unit));
          } else {
            setCustom(false);
            const p = parsePeriod(next);
            if (p) {
              setCount(String(p.count));
              setUnit(p.unit);
            }
            onChange(next);
          }
        }}
      >
        {PERIOD_PRESETS.map((p) => (
          <MenuItem key={p} value={p}>
            {t(`admin.periodPreset.${p}`)}
          </MenuItem>
        ))}
        <MenuItem value={CUSTOM}>{t('admin.periodCustom')}</MenuItem>
      </TextField>
      {custom ? (
        <Box sx={{ display: 'flex', gap: 2, mt: 2, flexWrap: 'wrap' }}>
          <TextField
            id={`${id}-count`}
            label={t('admin.periodCount')}
            value={count}
            inputMode="numeric"
            error={countError || Boolean(error)}
            helperText={countError ? t('admin.periodCountHint') : (error ?? ' ')}
            sx={{ flex: '1 1 8rem' }}
            onChange={(e) => {
              setCount(e.target.value);
              onChange(toPeriod(e.target.value, unit));
            }}
          />
          <TextField
            select
            id={`${id}-unit`}
            label={t('admin.periodUnit')}
            value={unit}
            helperText=" "
            sx={{ flex: '1 1 8rem' }}
            onChange={(e) => {
              const next = e.target.value as PeriodUnit;
              setUnit(next);
              onChange(toPeriod(count, next));
            }}
          >
            {PERIOD_UNITS.map((u) => (
              <MenuItem key={u} value={u}>
                {t(`admin.periodUnits.${u}`, { count: Number(count) || 2 })}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      ) : null}
    </Box>
  );
}
