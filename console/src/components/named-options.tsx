// The options of a select over named records (brands, suppliers): a first option for none or any, then one per record.
export function NamedOptions({ none, items }: { none: string; items: readonly { id: number; name: string }[] | undefined }) {
  return (
    <>
      <option value="">{none}</option>
      {items?.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </>
  );
}
