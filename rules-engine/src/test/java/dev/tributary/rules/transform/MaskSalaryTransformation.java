package dev.tributary.rules.transform;

import java.util.LinkedHashMap;
import java.util.Map;

/** A custom transformation registered through META-INF/services in the test resources. */
public final class MaskSalaryTransformation implements LcrTransformation {
    @Override
    public String name() {
        return "hr.mask_salary";
    }

    @Override
    public TransformableLcr transform(TransformableLcr lcr) {
        return lcr.withOldValues(mask(lcr.oldValues())).withNewValues(mask(lcr.newValues()));
    }

    private static Map<String, Object> mask(Map<String, Object> image) {
        if (image == null || !image.containsKey("pay")) {
            return image;
        }
        Map<String, Object> out = new LinkedHashMap<>(image);
        out.put("pay", null);
        return out;
    }
}
