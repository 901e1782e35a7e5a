// The standard price dialog (spec §5). One per page; invisible until the page asks:
//   in  `open-price-dialog` {productId}  → GET /api/products/{id}, dialog 'Prices · <code>'
//   out `prices-changed`    {productId}  after a successful POST /api/products/{id}/price
// SSR-safe: renders nothing until the event; all DOM/API use is in effects and handlers.
import * as Dialog from '@radix-ui/react-dialog';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type CSSProperties,
  type FormEvent,
} from 'react';
import {
  ApiError,
  apiFetch,
  MSG_HTTP_ERROR,
  toast,
  TOAST_LONG_MS,
  TOAST_SHORT_MS,
} from '../../lib/api';
import { centsToInput, formatCents, formatUplift, parsePrice } from './money';
import {
  derivedFrom,
  formFromProduct,
  MSG_NO_PERMISSION,
  MSG_SAVED,
  MSG_SPECIAL_RESET,
  TIER_FIELD,
  TIERS,
  toProductPrices,
  validateForm,
  type PriceField,
  type PriceForm,
  type Tier,
  type Uplifts,
} from './rules';

export interface PriceDialogProps {
  /** The user has the modPrc permission. */
  canModify: boolean;
  uplifts: Uplifts;
}

export const OPEN_EVENT = 'open-price-dialog';
export const CHANGED_EVENT = 'prices-changed';

type FieldErrors = Partial<Record<PriceField, string>>;

interface ProductHead {
  id: number;
  code: string;
  name: string;
}

const gridStyle: CSSProperties = {
  display: 'grid',
  gridTemplateColumns: 'repeat(2, minmax(170px, 1fr))',
  gap: '0 14px',
  minWidth: 'min(420px, 90vw)',
};
const checkRow: CSSProperties = { display: 'flex', alignItems: 'center', gap: 6 };
const derivedStyle: CSSProperties = {
  display: 'block',
  padding: '4px 0',
  fontVariantNumeric: 'tabular-nums',
};

const TIER_LABEL: Record<Tier, string> = { b: 'Class B', c: 'Class C', d: 'Class D', e: 'Class E' };

const positiveId = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0
    ? v
    : typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 0
      ? Number(v)
      : null;

export function PriceDialog({ canModify, uplifts }: PriceDialogProps) {
  const [open, setOpen] = useState(false);
  const [product, setProduct] = useState<ProductHead | null>(null);
  // null while loading.
  const [form, setForm] = useState<PriceForm | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const request = useRef<AbortController | null>(null);
  // Mirrors `saving` for the document listener: no other product opens during a save.
  const savingRef = useRef(false);
  // Focus the first price once the loaded form is shown.
  const focusFirst = useRef(false);
  const inputs = useRef<Partial<Record<PriceField, HTMLInputElement | null>>>({});
  const id = useId();
  const fieldId = (field: PriceField) => `${id}-${field}`;

  const close = useCallback(() => {
    request.current?.abort();
    request.current = null;
    setOpen(false);
    setProduct(null);
    setForm(null);
    setErrors({});
    setSaving(false);
    savingRef.current = false;
  }, []);

  const load = useCallback(
    (productId: number) => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      setOpen(true);
      setProduct({ id: productId, code: '', name: '' });
      setForm(null);
      setErrors({});
      setSaving(false);
      apiFetch<{ data?: unknown }>(`/products/${productId}`, { signal: controller.signal }).then(
        (body) => {
          if (request.current !== controller) return;
          request.current = null;
          const p = toProductPrices(body?.data);
          if (!p) {
            toast(MSG_HTTP_ERROR, 'error', TOAST_LONG_MS);
            close();
            return;
          }
          setProduct({ id: productId, code: p.code, name: p.name });
          setForm(formFromProduct(p));
          focusFirst.current = true;
        },
        () => {
          // apiFetch has reported the failure (an abort means another load or a close).
          if (request.current === controller) close();
        },
      );
    },
    [close],
  );

  useEffect(() => {
    const onOpen = (e: Event) => {
      // Claimed: the page stops re-sending a request made before this island mounted.
      e.preventDefault();
      const detail: unknown = (e as CustomEvent<unknown>).detail;
      const productId =
        typeof detail === 'object' && detail !== null
          ? positiveId((detail as { productId?: unknown }).productId)
          : null;
      if (productId !== null && !savingRef.current) load(productId);
    };
    document.addEventListener(OPEN_EVENT, onOpen);
    return () => {
      document.removeEventListener(OPEN_EVENT, onOpen);
      request.current?.abort();
    };
  }, [load]);

  useEffect(() => {
    if (!focusFirst.current || form === null) return;
    focusFirst.current = false;
    inputs.current.standardPrice?.focus();
  }, [form]);

  const onOpenChange = (next: boolean) => {
    if (next) return;
    if (saving) return;
    close();
  };

  const setPrice = (field: PriceField) => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setForm((f) => (f ? { ...f, prices: { ...f.prices, [field]: value } } : f));
    // Once a message shows, it follows the typing.
    if (errors[field]) {
      const parsed = parsePrice(value);
      setErrors((prev) => ({ ...prev, [field]: parsed.ok ? undefined : parsed.message }));
    }
  };

  const checkPrice = (field: PriceField) => () => {
    if (!form) return;
    const parsed = parsePrice(form.prices[field]);
    setErrors((prev) => ({ ...prev, [field]: parsed.ok ? undefined : parsed.message }));
  };

  const onSpecialChange = (e: ChangeEvent<HTMLSelectElement>) => {
    if (!form) return;
    const isSpecial = e.target.value === 'yes';
    if (!isSpecial && form.isSpecial) {
      setForm({ ...form, isSpecial, prices: { ...form.prices, specialPrice: centsToInput(0) } });
      setErrors((prev) => ({ ...prev, specialPrice: undefined }));
      toast(MSG_SPECIAL_RESET, 'info', TOAST_LONG_MS);
      return;
    }
    setForm({ ...form, isSpecial });
    setErrors((prev) => ({ ...prev, specialPrice: undefined }));
  };

  const onOverride = (tier: Tier) => (e: ChangeEvent<HTMLInputElement>) => {
    if (!form) return;
    const on = e.target.checked;
    const field = TIER_FIELD[tier];
    let text = form.prices[field];
    if (on && parsePrice(text).ok === false) {
      // Start from the derived price, which the user then adjusts.
      const derived = derivedFrom(form.prices.classAPrice, uplifts[tier]);
      text = derived === null ? '' : centsToInput(derived);
    }
    setForm({
      ...form,
      overrides: { ...form.overrides, [tier]: on },
      prices: { ...form.prices, [field]: text },
    });
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!form || !product || saving) return;
    if (!canModify) {
      toast(MSG_NO_PERMISSION, 'error', TOAST_SHORT_MS);
      return;
    }
    const result = validateForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      toast(result.message, 'error', TOAST_SHORT_MS);
      inputs.current[result.first]?.focus();
      return;
    }
    setSaving(true);
    savingRef.current = true;
    try {
      await apiFetch(`/products/${product.id}/price`, { method: 'POST', json: result.update });
    } catch (err) {
      // apiFetch has reported it; show the server's field messages where they belong.
      setSaving(false);
      savingRef.current = false;
      if (err instanceof ApiError) {
        const fieldErrors: FieldErrors = {};
        for (const [name, message] of Object.entries(err.errors)) {
          if (name in form.prices) fieldErrors[name as PriceField] = message;
        }
        setErrors(fieldErrors);
      }
      return;
    }
    toast(MSG_SAVED, 'success', TOAST_SHORT_MS);
    const productId = product.id;
    close();
    document.dispatchEvent(new CustomEvent(CHANGED_EVENT, { detail: { productId } }));
  };

  const priceInput = (field: PriceField, label: string, disabled = false) => {
    const fid = fieldId(field);
    const error = errors[field];
    return (
      <div className={error ? 'field has-error' : 'field'} key={field}>
        <label htmlFor={fid}>{label}</label>
        <input
          ref={(el) => {
            inputs.current[field] = el;
          }}
          id={fid}
          name={field}
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          value={form?.prices[field] ?? ''}
          disabled={disabled || saving}
          onChange={setPrice(field)}
          onBlur={checkPrice(field)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fid}-error` : undefined}
        />
        {error ? (
          <div className="field-error" id={`${fid}-error`} role="alert">
            {error}
          </div>
        ) : null}
      </div>
    );
  };

  const tierField = (tier: Tier) => {
    if (!form) return null;
    const field = TIER_FIELD[tier];
    const fid = fieldId(field);
    const derived = derivedFrom(form.prices.classAPrice, uplifts[tier]);
    const derivedText = derived === null ? '—' : formatCents(derived);
    const overridden = form.overrides[tier];
    const error = errors[field];
    return (
      <div className={error ? 'field has-error' : 'field'} key={field} data-tier={tier}>
        <label htmlFor={fid}>{TIER_LABEL[tier]}</label>
        {overridden ? (
          <input
            ref={(el) => {
              inputs.current[field] = el;
            }}
            id={fid}
            name={field}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            value={form.prices[field]}
            disabled={saving}
            onChange={setPrice(field)}
            onBlur={checkPrice(field)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fid}-error` : `${fid}-hint`}
          />
        ) : (
          <output id={fid} style={derivedStyle} aria-describedby={`${fid}-hint`}>
            {derivedText}
          </output>
        )}
        <span style={checkRow}>
          <input
            type="checkbox"
            id={`${fid}-override`}
            checked={overridden}
            disabled={saving}
            onChange={onOverride(tier)}
            aria-label={`Override ${TIER_LABEL[tier]}`}
          />
          <label htmlFor={`${fid}-override`}>override</label>
          <span className="muted" id={`${fid}-hint`}>
            {overridden ? `derived ${derivedText}` : `derived, Class A ${formatUplift(uplifts[tier])}`}
          </span>
        </span>
        {error ? (
          <div className="field-error" id={`${fid}-error`} role="alert">
            {error}
          </div>
        ) : null}
      </div>
    );
  };

  const checkbox = (key: 'isClearance' | 'isCustomerShow', label: string) => (
    <div className="field" key={key}>
      <span style={checkRow}>
        <input
          type="checkbox"
          id={`${id}-${key}`}
          checked={form ? form[key] : false}
          disabled={saving}
          onChange={(e) => {
            const checked = e.target.checked;
            setForm((f) => (f ? { ...f, [key]: checked } : f));
          }}
        />
        <label htmlFor={`${id}-${key}`}>{label}</label>
      </span>
    </div>
  );

  const title = product?.code ? `Prices · ${product.code}` : 'Prices';

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog price-dialog"
          {...(product?.name ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title>{title}</Dialog.Title>
          {product?.name ? (
            <Dialog.Description className="dialog-description">{product.name}</Dialog.Description>
          ) : null}
          {form === null ? (
            <p className="muted" role="status">
              Loading…
            </p>
          ) : (
            <form noValidate onSubmit={onSubmit}>
              <div style={gridStyle}>
                {priceInput('standardPrice', 'Standard')}
                <div className="field">
                  <label htmlFor={`${id}-special`}>Special or not</label>
                  <select
                    id={`${id}-special`}
                    name="is_special"
                    value={form.isSpecial ? 'yes' : 'no'}
                    disabled={saving}
                    onChange={onSpecialChange}
                  >
                    <option value="yes">Yes</option>
                    <option value="no">No</option>
                  </select>
                </div>
                {priceInput('specialPrice', 'Monthly Special')}
                {priceInput('classAPrice', 'Class A')}
                {TIERS.map(tierField)}
                {priceInput('ref_pur', 'Tempe (Ref. purchase)')}
                <div>
                  {checkbox('isClearance', 'Clearance')}
                  {checkbox('isCustomerShow', 'Show to customer')}
                </div>
              </div>
              <div className="dialog-actions">
                <Dialog.Close asChild>
                  <button type="button" className="btn" disabled={saving}>
                    Cancel
                  </button>
                </Dialog.Close>
                <button type="submit" className="btn primary" disabled={saving}>
                  Save
                </button>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
