// The standard price dialog (spec §5). One per page; invisible until the page asks:
//   in  `open-price-dialog` {productId}  → GET /api/products/{id}, dialog 'Prices · <code>'
//   out `prices-changed`    {productId}  after a successful POST /api/products/{id}/price
// SSR-safe: renders nothing until the event; all DOM/API use is in effects and handlers.
import { useId, useLayoutEffect, useRef, useState, type ChangeEvent, type CSSProperties, type FormEvent } from 'react';
import { ApiError, apiFetch, toast, TOAST_LONG_MS, TOAST_SHORT_MS } from '../../lib/api';
import { DialogForm, DialogFrame, Loading } from '../../lib/dialog';
import { FieldError } from '../../lib/form';
import { centsToInput, formatCents } from '../../lib/money';
import { parsePrice, PriceInput, priceError } from '../../lib/PriceInput';
import { useProductDialog, type ProductDialog } from '../../lib/product-dialog';
import { formatUplift } from './tiers';
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
  type ProductPrices,
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

async function loadProduct(productId: number, signal: AbortSignal): Promise<ProductPrices | null> {
  const body = await apiFetch<{ data?: unknown }>(`/products/${productId}`, { signal });
  return toProductPrices(body?.data);
}

export function PriceDialog({ canModify, uplifts }: PriceDialogProps) {
  const dialog = useProductDialog(OPEN_EVENT, loadProduct);
  const product = dialog.data;

  return (
    <DialogFrame
      {...dialog.frame}
      title={product?.code ? `Prices · ${product.code}` : 'Prices'}
      description={product?.name ? product.name : null}
      className="price-dialog"
    >
      {dialog.productId === null || product === null ? (
        <Loading />
      ) : (
        <PriceFields productId={dialog.productId} product={product} dialog={dialog} canModify={canModify} uplifts={uplifts} />
      )}
    </DialogFrame>
  );
}

interface PriceFieldsProps extends PriceDialogProps {
  productId: number;
  product: ProductPrices;
  dialog: ProductDialog<ProductPrices>;
}

/** The loaded product's form; mounted afresh for each load. */
function PriceFields({ productId, product, dialog, canModify, uplifts }: PriceFieldsProps) {
  const [form, setForm] = useState<PriceForm>(() => formFromProduct(product));
  const [errors, setErrors] = useState<FieldErrors>({});
  const inputs = useRef<Partial<Record<PriceField, HTMLInputElement | null>>>({});
  const id = useId();
  const fieldId = (field: PriceField) => `${id}-${field}`;
  const saving = dialog.saving;

  // Keyboard-first: the first price has the focus once loaded.
  useLayoutEffect(() => {
    inputs.current.standardPrice?.focus();
  }, []);

  const setPrice = (field: PriceField) => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, prices: { ...f.prices, [field]: value } }));
    // Once a message shows, it follows the typing.
    if (errors[field]) setErrors((prev) => ({ ...prev, [field]: priceError(value) }));
  };

  const checkPrice = (field: PriceField) => () => {
    setErrors((prev) => ({ ...prev, [field]: priceError(form.prices[field]) }));
  };

  const onSpecialChange = (e: ChangeEvent<HTMLSelectElement>) => {
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
    if (saving) return;
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
    try {
      await dialog.save(() => apiFetch(`/products/${productId}/price`, { method: 'POST', json: result.update }));
    } catch (err) {
      // apiFetch has reported it; show the server's field messages where they belong.
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
    dialog.close();
    document.dispatchEvent(new CustomEvent(CHANGED_EVENT, { detail: { productId } }));
  };

  /** The price input of `field`, as PriceInput wants it. */
  const inputOf = (field: PriceField) => ({
    ref: (el: HTMLInputElement | null) => {
      inputs.current[field] = el;
    },
    id: fieldId(field),
    name: field,
    value: form.prices[field],
    disabled: saving,
    onChange: setPrice(field),
    onBlur: checkPrice(field),
    error: errors[field],
  });

  const fieldClass = (field: PriceField) => (errors[field] ? 'field has-error' : 'field');

  const priceInput = (field: PriceField, label: string) => (
    <div className={fieldClass(field)} key={field}>
      <label htmlFor={fieldId(field)}>{label}</label>
      <PriceInput {...inputOf(field)} />
      <FieldError of={fieldId(field)} message={errors[field]} />
    </div>
  );

  const tierField = (tier: Tier) => {
    const field = TIER_FIELD[tier];
    const fid = fieldId(field);
    const derived = derivedFrom(form.prices.classAPrice, uplifts[tier]);
    const derivedText = derived === null ? '—' : formatCents(derived);
    const overridden = form.overrides[tier];
    return (
      <div className={fieldClass(field)} key={field} data-tier={tier}>
        <label htmlFor={fid}>{TIER_LABEL[tier]}</label>
        {overridden ? (
          <PriceInput {...inputOf(field)} hintId={`${fid}-hint`} />
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
        <FieldError of={fid} message={errors[field]} />
      </div>
    );
  };

  const checkbox = (key: 'isClearance' | 'isCustomerShow', label: string) => (
    <div className="field" key={key}>
      <span style={checkRow}>
        <input
          type="checkbox"
          id={`${id}-${key}`}
          checked={form[key]}
          disabled={saving}
          onChange={(e) => {
            const checked = e.target.checked;
            setForm((f) => ({ ...f, [key]: checked }));
          }}
        />
        <label htmlFor={`${id}-${key}`}>{label}</label>
      </span>
    </div>
  );

  return (
    <DialogForm onSubmit={onSubmit} submit="Save" busyLabel="Saving…" busy={saving}>
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
        {form.hasRefPur ? priceInput('ref_pur', 'Tempe (Ref. purchase)') : null}
        <div>
          {checkbox('isClearance', 'Clearance')}
          {checkbox('isCustomerShow', 'Show to customer')}
        </div>
      </div>
    </DialogForm>
  );
}
