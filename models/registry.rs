//! Every variant of every area with every model of its area instantiated for it. The variant
//! list comes from the kernel crate's variant folders (`for_each_<area>_variant!`, generated
//! by its build script), so a new variant file appears here, in the matrix and in
//! `verify --variant` with no list to edit.

use crate::{compound, lru, vma, Model};
use mmcheck::mm::lru::Lru;
use mmcheck::mm::swap::Compound;
use mmcheck::mm::vma::VmaAdjust;
use mmcheck::variant::{Area, VariantMeta};

/// One variant and its area's models, instantiated for it.
pub struct VariantEntry {
    pub meta: VariantMeta,
    pub models: fn() -> Vec<Model>,
}

macro_rules! entries {
    (compound: $($v:ident),*) => {
        &[$(VariantEntry {
            meta: <mmcheck::compound::$v::Variant as Compound>::META,
            models: compound::models::<mmcheck::compound::$v::Variant>,
        }),*]
    };
    (lru: $($v:ident),*) => {
        &[$(VariantEntry {
            meta: <mmcheck::lru::$v::Variant as Lru>::META,
            models: lru::models::<mmcheck::lru::$v::Variant>,
        }),*]
    };
    (vma: $($v:ident),*) => {
        &[$(VariantEntry {
            meta: <mmcheck::vma::$v::Variant as VmaAdjust>::META,
            models: vma::models::<mmcheck::vma::$v::Variant>,
        }),*]
    };
}

static COMPOUND: &[VariantEntry] = mmcheck::for_each_compound_variant!(entries);
static LRU: &[VariantEntry] = mmcheck::for_each_lru_variant!(entries);
static VMA: &[VariantEntry] = mmcheck::for_each_vma_variant!(entries);

/// The variants of `area`, in file-name order.
pub fn variants(area: Area) -> &'static [VariantEntry] {
    match area {
        Area::Compound => COMPOUND,
        Area::Lru => LRU,
        Area::Vma => VMA,
    }
}

/// The variant with this id (in any area).
pub fn variant(id: &str) -> Option<&'static VariantEntry> {
    Area::ALL
        .into_iter()
        .flat_map(variants)
        .find(|v| v.meta.id == id)
}

/// The model `name` of `variant`, instantiated for it.
pub fn model(variant_id: &str, name: &str) -> Option<Model> {
    (variant(variant_id)?.models)()
        .into_iter()
        .find(|m| m.name == name)
}

/// The models of `area` (their names and shapes do not depend on the variant).
pub fn models(area: Area) -> Vec<Model> {
    variants(area)
        .first()
        .map(|v| (v.models)())
        .unwrap_or_default()
}
