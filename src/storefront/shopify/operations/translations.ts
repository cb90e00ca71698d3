// The shop's locales and product translations.

/** The shop's enabled locales (translation-sync.ts; read once per shop and cached for a few minutes). */
export const ShopLocales = /* GraphQL */ `
  query ShopLocales {
    shopLocales {
      locale
      primary
      published
    }
  }
`;

export interface ShopLocalesData {
  shopLocales: { locale: string; primary: boolean; published: boolean }[];
}

/** A product's translatable content with the digests translationsRegister needs (one query per product registered). */
export const TranslatableProductContent = /* GraphQL */ `
  query TranslatableProductContent($resourceId: ID!) {
    translatableResource(resourceId: $resourceId) {
      resourceId
      translatableContent {
        key
        digest
      }
    }
  }
`;

export interface TranslatableProductContentData {
  translatableResource: { resourceId: string; translatableContent: { key: string; digest: string | null }[] } | null;
}

/** Every translation of one product in one call, all locales at once. */
export const TranslationsRegister = /* GraphQL */ `
  mutation TranslationsRegister($resourceId: ID!, $translations: [TranslationInput!]!) {
    translationsRegister(resourceId: $resourceId, translations: $translations) {
      userErrors {
        field
        message
        code
      }
    }
  }
`;

/** Translations the bridge registered before and the PIM no longer has (keys × locales). */
export const TranslationsRemove = /* GraphQL */ `
  mutation TranslationsRemove($resourceId: ID!, $translationKeys: [String!]!, $locales: [String!]!) {
    translationsRemove(resourceId: $resourceId, translationKeys: $translationKeys, locales: $locales) {
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface TranslationsMutationData {
  translationsRegister?: { userErrors: { field: string[] | null; message: string; code: string | null }[] } | null;
  translationsRemove?: { userErrors: { field: string[] | null; message: string; code: string | null }[] } | null;
}
