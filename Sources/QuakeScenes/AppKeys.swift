import Foundation

/// The app-storage keys of SPEC §4.2, a public file format: never rename them.
public enum AppKeys {
    /// The USGS summary feeds `refresh` accepts: `{significant,4.5,2.5,1.0,all}_{hour,day,week,month}`.
    public static let feedNames: [String] = ["significant", "4.5", "2.5", "1.0", "all"].flatMap { level in
        ["hour", "day", "week", "month"].map { "\(level)_\($0)" }
    }

    /// `minimumMagnitude`: hide quakes below it; nil (the default) for no filter.
    public static let minimumMagnitude = AppKey<Double?>("minimumMagnitude", default: nil,
                                                         isValid: { $0.map { $0.isFinite } ?? true })
    /// `timeZone`: `utc` or `local` (default).
    public static let timeZone = AppKey<String>("timeZone", default: "local", isValid: { ["utc", "local"].contains($0) })
    /// `distanceUnit`: `km` (default) or `mi`.
    public static let distanceUnit = AppKey<String>("distanceUnit", default: "km", isValid: { ["km", "mi"].contains($0) })
    /// `refreshFeed`: the feed `r` refreshes, default `all_month`.
    public static let refreshFeed = AppKey<String>("refreshFeed", default: "all_month",
                                                   isValid: { feedNames.contains($0) })

    /// `home`: `{latitude, longitude, name}` for distances, the near-home filter and alerts; nil (the default) for none.
    public static let home = AppKey<HomeLocation?>("home", default: nil, isValid: { $0?.isValid ?? true })
    /// `nearRadius`: kilometres from home that count as "near home" (the browser's filter), default 300.
    public static let nearRadius = AppKey<Double>("nearRadius", default: 300, isValid: isRadius)
    /// `alertMagnitude`: a new quake of at least this magnitude alerts; nil (the default): none does by magnitude.
    public static let alertMagnitude = AppKey<Double?>("alertMagnitude", default: nil,
                                                       isValid: { $0.map { $0.isFinite } ?? true })
    /// `alertRadius`: a new quake within this many kilometres of home alerts; nil (the default): none does by distance.
    public static let alertRadius = AppKey<Double?>("alertRadius", default: nil,
                                                    isValid: { $0.map(isRadius) ?? true })
    /// `alertIntensity`: a new quake predicted to shake home at least this strongly (the Modified
    /// Mercalli intensity to one decimal, 1–10; `FeltIntensity`) alerts; nil (the default): none does by intensity.
    public static let alertIntensity = AppKey<Double?>("alertIntensity", default: nil,
                                                       isValid: { $0.map { $0.isFinite && $0 >= 1 && $0 <= 10 } ?? true })
    /// `alertCommand`: a shell command run once per alerting quake, with the quake as JSON on stdin; nil: none.
    public static let alertCommand = AppKey<String?>("alertCommand", default: nil)
    /// The kinds of `alertNotification`.
    public static let alertNotifications = ["off", "osc777", "osc9"]
    /// `alertNotification`: the terminal's own notification for an alert, outside the pane: `off`
    /// (the default), `osc777` (`ESC ] 777 ; notify ; TITLE ; BODY`: foot, urxvt, Ghostty, WezTerm…)
    /// or `osc9` (`ESC ] 9 ; BODY`: iTerm2, Windows Terminal, ConEmu, kitty…); inside tmux passed
    /// through it (`allow-passthrough on`).
    public static let alertNotification = AppKey<String>("alertNotification", default: "off",
                                                          isValid: { alertNotifications.contains($0) })
    /// `autoRefreshInterval`: seconds between automatic refreshes of `autoRefreshFeed`; 0 turns them off. Default 300.
    public static let autoRefreshInterval = AppKey<Double>("autoRefreshInterval", default: 300,
                                                           isValid: { $0 == 0 || (30...longestInterval).contains($0) })
    /// `autoRefreshFeed`: the feed polled every interval, default `all_day` (USGS updates it every minute).
    public static let autoRefreshFeed = AppKey<String>("autoRefreshFeed", default: "all_day",
                                                       isValid: { feedNames.contains($0) })

    /// The longest `autoRefreshInterval`: 366 days, in seconds (a date much later is not one a
    /// plist or a timer holds).
    public static let longestInterval: Double = 366 * 86_400
    /// The widest radius around home: half the Earth's circumference, in km, takes in every point.
    public static let widestRadius: Double = 20_038
    private static func isRadius(_ km: Double) -> Bool { km > 0 && km <= widestRadius }

    /// Checks for every key above, applied when the file is loaded.
    static let checks: [KeyCheck] = [
        KeyCheck(minimumMagnitude), KeyCheck(timeZone), KeyCheck(distanceUnit), KeyCheck(refreshFeed),
        KeyCheck(home), KeyCheck(nearRadius), KeyCheck(alertMagnitude), KeyCheck(alertRadius), KeyCheck(alertIntensity),
        KeyCheck(alertCommand), KeyCheck(alertNotification), KeyCheck(autoRefreshInterval), KeyCheck(autoRefreshFeed),
    ]
}
