import FaceCore
/// The overlay surface of a planar YUV picture: takes the painter's upright geometry, maps it to
/// the stored orientation and draws with colours and sprite converted to the picture's encoding.
struct YUVCanvas<Sample: PlaneSample>: OverlaySurface {
    let planes: YUVPlanes<Sample>
    let map: OrientationMap
    let palette: YUVPalette
    let eyeSprite: YUVSprite?
    let maskImage: YUVMaskImage?

    var width: Int { map.uprightWidth }
    var height: Int { map.uprightHeight }

    func fill(_ rect: PixelRect, color: RenderColor) {
        planes.fill(map.stored(rect), hole: nil, color: palette[color])
    }

    func stroke(_ rect: PixelRect, thickness: Int, color: RenderColor) {
        guard !rect.isEmpty else { return }
        planes.fill(map.stored(rect), hole: rect.strokeHole(thickness: thickness).map(map.stored), color: palette[color])
    }

    func drawEyeSprites(in dests: [PixelRect]) {
        guard let eyeSprite else { return }
        planes.blend(eyeSprite, layout: map.layout(width: eyeSprite.width, height: eyeSprite.height), in: dests.map(map.stored))
    }

    func blur(_ mask: EllipseMask, radius: Int) {
        planes.blur(map.stored(mask), radius: radius)
    }

    func pixelate(_ mask: EllipseMask, block: Int) {
        // Cells are anchored at the mask's upright top-left corner, wherever that lands.
        let stored = map.stored(mask)
        planes.pixelate(stored, block: block, anchorX: map.flipsX ? stored.bounds.x1 : stored.bounds.x0,
                        anchorY: map.flipsY ? stored.bounds.y1 : stored.bounds.y0)
    }

    func fill(_ mask: EllipseMask, color: RenderColor) {
        planes.fill(map.stored(mask), color: palette[color])
    }

    func drawMaskImage(in dest: PixelRect) -> Bool {
        guard let maskImage else { return false }
        // The level is chosen by the upright size; the layout walks it in stored orientation.
        let level = maskImage.level(width: dest.width, height: dest.height)
        planes.blend(level, layout: map.layout(width: level.width, height: level.height), in: [map.stored(dest)])
        return true
    }
}
