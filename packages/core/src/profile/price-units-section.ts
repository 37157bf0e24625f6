/**
 * The name of the catalog section listing the models priced in a unit other than credits
 * (`modelPriceUnits`), beside `video_models`, `image_models`, … in a run's catalogs.
 */
export const priceUnitsSection = "price_units";
